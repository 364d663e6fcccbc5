#include "cli.hpp"

int main(int argc, char** argv) { return xrcrcv::cli::main_entry(argc, argv); }
