"""Logging helpers: `get_logger` returns a configured `logging.Logger` (as in MXNet 1.9.1)."""
import logging
import sys
import warnings

CRITICAL = logging.CRITICAL
ERROR = logging.ERROR
WARNING = logging.WARNING
INFO = logging.INFO
DEBUG = logging.DEBUG
NOTSET = logging.NOTSET

PY3 = sys.version_info[0] == 3

__all__ = ['get_logger', 'getLogger', 'CRITICAL', 'ERROR', 'WARNING', 'INFO', 'DEBUG', 'NOTSET']


class _Formatter(logging.Formatter):
    """'<level letter><MMDD HH:MM:SS> <pid> <file>:<line>] message', coloured on terminals."""

    def __init__(self, colored=True):
        self.colored = colored
        super(_Formatter, self).__init__()

    @staticmethod
    def _color(level):
        if level <= logging.DEBUG:
            return '\x1b[34m'
        if level <= logging.INFO:
            return '\x1b[32m'
        if level <= logging.WARNING:
            return '\x1b[35m'
        return '\x1b[31m'

    @staticmethod
    def _label(level):
        return {logging.CRITICAL: 'C', logging.ERROR: 'E', logging.WARNING: 'W',
                logging.INFO: 'I', logging.DEBUG: 'D'}.get(level, 'U')

    def format(self, record):
        fmt = ''
        if self.colored:
            fmt = self._color(record.levelno)
        fmt += self._label(record.levelno)
        if self.colored:
            fmt += '\x1b[0m'
        fmt += '%(asctime)s %(process)d %(pathname)s:%(funcName)s:%(lineno)d'
        fmt += ']%(message)s'
        self._style._fmt = fmt  # pylint: disable=protected-access
        self.datefmt = '%m%d %H:%M:%S'
        return super(_Formatter, self).format(record)


def getLogger(name=None, filename=None, filemode=None, level=WARNING):  # noqa: N802
    """Deprecated alias of get_logger."""
    warnings.warn("getLogger is deprecated, Use get_logger instead.", DeprecationWarning,
                  stacklevel=2)
    return get_logger(name, filename, filemode, level)


def get_logger(name=None, filename=None, filemode=None, level=WARNING):
    """A logger with MXNet's format; repeated calls with the same name return it unchanged.

    Parameters
    ----------
    name : str, logger name (None: the root logger)
    filename : str, log to this file instead of stderr
    filemode : str, file open mode ('a' by default)
    level : int, logging level set on a newly configured named logger
    """
    logger = logging.getLogger(name)
    if name is not None and not getattr(logger, '_init_done', None):
        logger._init_done = True  # pylint: disable=protected-access
        if filename:
            mode = filemode if filemode else 'a'
            handler = logging.FileHandler(filename, mode)
        else:
            handler = logging.StreamHandler()
        colored = handler.stream.isatty() if hasattr(handler, 'stream') and \
            hasattr(handler.stream, 'isatty') else False
        handler.setFormatter(_Formatter(colored=colored))
        logger.addHandler(handler)
        logger.setLevel(level)
    return logger
