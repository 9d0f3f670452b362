// TYPE004 on the host: HIP's __half_raw converts a brace-initialised literal as a number.
// Prints the bits of positive infinity made both ways.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <cstdio>
#include <cstring>

int main()
{
    __half_raw braces = {0x7C00};
    __half_raw member;
    member.x = 0x7C00;
    unsigned short a, b;
    memcpy(&a, &braces, sizeof a);
    memcpy(&b, &member, sizeof b);
    printf("braces 0x%04x member 0x%04x\n", a, b);
    return 0;
}
