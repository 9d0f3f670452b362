cudaMalloc(&p, 4);
