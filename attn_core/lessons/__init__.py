"""The lessons' own maths: each page's numbers, computed from the core. NumPy only."""
