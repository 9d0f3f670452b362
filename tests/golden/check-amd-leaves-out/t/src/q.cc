#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750
int q_path = 1;
#endif
