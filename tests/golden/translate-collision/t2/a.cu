cudaFree(p);
