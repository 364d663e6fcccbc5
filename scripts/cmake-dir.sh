# shellcheck shell=bash
# forget_foreign_cmake_build DIR SRC: make DIR a CMake build directory for
# the source directory SRC, emptying it first if it was configured for
# another one (CMake refuses a second source directory, and a clone at
# another path, such as CI's, is another one). Source it after a lib.sh
# that defines step().
forget_foreign_cmake_build() { # DIR SRC
	if [ -f "$1/CMakeCache.txt" ] &&
		! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$2" "$1/CMakeCache.txt"; then
		step "$1 was configured for another tree: starting afresh"
		rm -rf "$1"
	fi
	mkdir -p "$1"
}
