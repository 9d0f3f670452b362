from setuptools import setup
