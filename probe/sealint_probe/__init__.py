"""sealint's confirm-mode probe: runs a training script under a narrow tracer and measures the
variables that sealint flagged, iteration by iteration (docs/confirm.md).

Standard library and torch only, Python 3.8+ syntax, so that it runs on any interpreter the user's
training code runs on, including a GPU machine without sealint's build.
"""

__version__ = "1"
