"""Postgres access: the connection pool, migrations and one module of SQL per aggregate."""
