cudaFree(0);
