// The Catch2 main, alone in its translation unit (it takes ~17 s to compile under em++).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
