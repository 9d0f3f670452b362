__version__ = '2.10.0+rocm7.0'
debug = False
cuda = None
hip = '7.0.51831'
