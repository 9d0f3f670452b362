#pragma once
#include <musa_runtime.h>
#define cudaStreamFireAndForget musaStreamFireAndForget
