# The gtest results of a guest log, one line per finished test:
#   section<TAB>OK|FAILED|SKIPPED<TAB>Suite.Test/param
# The section is the last "XRC-SUITE=<name>" line (tests/guest-run.sh and
# rdma-core/guest.sh print them).  Only lines with a time count: gtest
# repeats FAILED/SKIPPED names without one in its final summary, and a
# failed parameterised test has ", where GetParam() = ..." before it.
# Feed it the log without carriage returns (tr -d '\r').
/^XRC-SUITE=/ { sect = substr($0, 11); next }
sect != "" && match($0, /^\[ +(OK|FAILED|SKIPPED) +\] [^ ,]+(, where .*)? \([0-9]+ ms\)$/) {
	r = $0; sub(/^\[ +/, "", r); res = r; sub(/ .*/, "", res)
	name = r; sub(/^[A-Z]+ +\] /, "", name); sub(/ \([0-9]+ ms\)$/, "", name)
	sub(/, where .*/, "", name)
	printf "%s\t%s\t%s\n", sect, res, name
}
