from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '2.11.0+rocm7.1'
debug = False
cuda: Optional[str] = None
hip: Optional[str] = '7.1.25424'
