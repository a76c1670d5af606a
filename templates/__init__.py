"""jinja2 templates for generated C/CUDA; shipped inside the package as transpile.templates."""
