from .server import run_server

run_server()
