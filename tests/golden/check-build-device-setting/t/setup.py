import os
from setuptools import setup


def target_device():
    return os.getenv('KIT_DEVICE', 'cuda')


ext_modules = []
if target_device() == 'cuda':
    from cmake_build_extension import CMakeExtension, BuildExtension
    ext_modules = [CMakeExtension(name='_engine', source_dir='.')]

setup(name='kit', ext_modules=ext_modules)
