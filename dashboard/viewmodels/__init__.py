"""The dashboard's view models: what the pages and components show, worked out without Streamlit
(frames of the replayer, the pad's rows, statistic cells). Nothing here imports ``streamlit``
(``tests/test_architecture.py`` checks it); the pages and widgets beside this package draw them."""
