#define WARP_SIZE 32
