"""Collection settings for the whole checkout (pytest reads this before the test folders).

The packages are collected with ``--doctest-modules`` (``pyproject.toml``), which imports every
module. The Streamlit entry script and its pages run their screen on import, so they are not
collected; the other ``dashboard`` modules only define things and are safe to import.
"""

collect_ignore = ["dashboard/app.py"]
collect_ignore_glob = ["dashboard/screens/*"]
