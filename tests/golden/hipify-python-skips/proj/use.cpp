#include "latin1.h"
#include "old_hip.h"
void f() { cudaStreamSynchronize(stream); }
