"""HTTP routers: thin handlers that validate input, call one service and shape the response."""
