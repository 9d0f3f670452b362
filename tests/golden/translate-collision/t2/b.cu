cudaFree(q);
