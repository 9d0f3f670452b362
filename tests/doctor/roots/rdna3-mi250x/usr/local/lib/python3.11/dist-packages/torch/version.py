__version__ = '2.3.0+rocm6.0'
debug = False
cuda = None
git_version = '97ff6cfd9c86c5c09d7ce775ab64ec5c99230f5b'
hip = '6.0.32830-d62f6a171'
