"""Imported at interpreter start-up by tritium.pth when TRITIUM is set (not 0):
enables the Triton plug-in for unmodified scripts and test suites."""
import sys

try:
    from . import triton as _plugin
    _plugin.enable()
except Exception as error:  # a broken plug-in must not stop every Python program
    sys.stderr.write(f"tritium: TRITIUM is set but the Triton plug-in could not be enabled: {error!r}\n")
