int a = 0;
