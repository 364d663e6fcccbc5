# cmake -DCXX=... -DSRC=... -DFLAGS="..." -P check-nodiscard.cmake
# Compiles SRC with -Wunused-result and fails unless every line marked
# NODISCARD produced its own "ignoring return value" warning.
file(STRINGS "${SRC}" marked REGEX "// NODISCARD$")
list(LENGTH marked want)
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
execute_process(COMMAND ${CXX} -std=c++23 -fsyntax-only -Wunused-result ${flags} ${SRC}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nodiscard check did not compile:\n${err}")
endif()
string(REGEX MATCHALL "ignoring return value" hits "${err}")
list(LENGTH hits got)
if(NOT got EQUAL want)
  message(FATAL_ERROR "${want} calls marked NODISCARD, ${got} warned:\n${err}")
endif()
message(STATUS "nodiscard: all ${want} fallible calls warn when ignored")
