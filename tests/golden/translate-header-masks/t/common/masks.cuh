#pragma once
#define FULL 0xffffffff
#include "more.cuh"
