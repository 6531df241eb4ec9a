"""Shared pytest setup: the op-table package lives beside the unit tests."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "unittest"))
