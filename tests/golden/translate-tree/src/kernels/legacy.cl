__kernel void k() {}
