"""Development-only tools for measuring Tenbou: `manage.py bench_pages` (every page of a
large generated league against the login page) and `manage.py load_test` (a tournament
room against gunicorn). The app is installed when TENBOU_PERF is on, which it is by
default while DEBUG is on (development and the tests) and not in production."""
