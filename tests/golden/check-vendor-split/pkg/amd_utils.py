def f():
    return 0
