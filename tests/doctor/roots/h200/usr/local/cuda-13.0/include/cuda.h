/* stand-in for CUDA's cuda.h: only the version */
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__
#define CUDA_VERSION 13000
#endif
