"""Command-line tools shipped with the package (``python -m mxnet.tools.launch``)."""
