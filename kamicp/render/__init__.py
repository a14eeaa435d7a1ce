"""Pictures of levels and solutions: terminal (rich), and later SVG/PNG."""
