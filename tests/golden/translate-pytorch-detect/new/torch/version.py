__version__ = '2.11.1+rocm7.1'
hip = '7.1.25424'
