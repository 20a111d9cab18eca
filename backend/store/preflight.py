"""Before the migrations: can Quire run on this Postgres server as this role? One line if not.

Checked, in one short session: the server's version; pgvector — created in the database, or installed on
the server and creatable by this role (it is not a trusted extension, so that takes a superuser); that
the role may create tables in schema `public` while migrations are pending (PostgreSQL 15 took that right
from ordinary roles); and DBOS's database `<db>_dbos` — found and open to the role, or created here when
the role may create databases. Whatever is missing is said in one line that names the SQL to run and who
must run it (`PreflightFailed`), instead of the tracebacks of the migration runner and of DBOS.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

from backend.store.db import MIGRATIONS_DIR, database_name, normalise_url, pending_migrations
from backend.store.liveness import CONNECT_TIMEOUT_S

log = logging.getLogger(__name__)

MIN_SERVER_VERSION = 140000  # pg_terminate_backend(pid, timeout) (the fence) is PostgreSQL 14+
MIN_PGVECTOR = (0, 5, 0)  # HNSW indexes (the Postgres search mode)
DBOS_SUFFIX = "_dbos"


class PreflightFailed(SystemExit):
    """The server or the role lacks something; the message is the one line to show."""


@dataclass(frozen=True)
class ServerFacts:
    version_num: int
    version: str
    role: str
    superuser: bool
    createdb: bool
    database: str
    vector_created: str | None  # its version in this database
    vector_available: str | None  # the server's default version, if installed on the server
    vector_trusted: bool
    may_create_in_database: bool
    may_create_in_public: bool
    migrations_pending: bool
    dbos_database: str
    dbos_exists: bool
    dbos_connect: bool


def _ident(name: str) -> str:
    """A name as SQL must spell it (quoted unless plain lower-case)."""
    return name if re.fullmatch(r"[a-z_][a-z0-9_]*", name) else '"' + name.replace('"', '""') + '"'


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def problem(facts: ServerFacts) -> str | None:
    """The one line for what is missing, or None when Quire can start."""
    major = facts.version_num // 10000
    role, database, dbos_database = _ident(facts.role), _ident(facts.database), _ident(facts.dbos_database)
    if facts.version_num < MIN_SERVER_VERSION:
        return (f"Quire cannot start: the server runs PostgreSQL {facts.version}, and Quire needs 14 or newer "
                "(with pgvector 0.5 or newer).")
    if facts.vector_created is None and facts.vector_available is None:
        return (f"Quire cannot start: pgvector is not installed on this PostgreSQL {major} server. The server's "
                f"administrator must install it (Debian/Ubuntu: package postgresql-{major}-pgvector from the "
                "PostgreSQL project's apt repository, apt.postgresql.org; elsewhere build it from source, "
                f"github.com/pgvector/pgvector), then as a superuser run once: psql -d {database} -c "
                "'CREATE EXTENSION IF NOT EXISTS vector'")
    reasons: list[str] = []
    statements: list[str] = []
    superuser_needed = False
    if facts.vector_created is not None and _version(facts.vector_created) < MIN_PGVECTOR:
        reasons.append(f"pgvector {facts.vector_created} is too old (0.5 or newer is needed)")
        statements.append("ALTER EXTENSION vector UPDATE")
        superuser_needed = True
    elif facts.vector_created is None and not (
            facts.superuser or (facts.vector_trusted and facts.may_create_in_database)):
        reasons.append(f"role {facts.role} may not create the pgvector extension in database {facts.database}")
        statements.append("CREATE EXTENSION IF NOT EXISTS vector")
        superuser_needed = True
    if facts.migrations_pending and not (facts.superuser or facts.may_create_in_public):
        reasons.append(f"role {facts.role} may not create tables in schema public")
        statements.append(f"GRANT CREATE ON SCHEMA public TO {role}")
    if not facts.dbos_exists and not (facts.superuser or facts.createdb):
        reasons.append(f"database {facts.dbos_database} (DBOS's records) does not exist and role {facts.role} "
                       "may not create databases")
        statements.append(f"CREATE DATABASE {dbos_database} OWNER {role}")
        superuser_needed = True
    elif facts.dbos_exists and not facts.dbos_connect:
        reasons.append(f"role {facts.role} may not connect to database {facts.dbos_database} (DBOS's records)")
        statements.append(f"GRANT CONNECT, CREATE ON DATABASE {dbos_database} TO {role}")
    if not statements:
        return None
    who = "A superuser" if superuser_needed else f"The owner of database {facts.database} (or a superuser)"
    commands = " ".join(f"-c '{statement}'" for statement in statements)
    return (f"Quire cannot start on PostgreSQL {facts.version} as role {facts.role}: {'; '.join(reasons)}. "
            f"{who} must run once: psql -d {database} {commands}")


def check_server(url: str, application_name: str = "quire") -> None:
    """Raise `PreflightFailed` with one line if Quire cannot run here; create `<db>_dbos` when it may."""
    url = normalise_url(url)
    try:
        facts = _gather(url, application_name)
    except psycopg.OperationalError as exc:
        raise PreflightFailed(_unreachable(url, exc)) from None
    except psycopg.ProgrammingError as exc:  # not a connection URL psycopg can read
        raise PreflightFailed(f"DATABASE_URL is not a valid PostgreSQL URL: {exc}.") from None
    line = problem(facts)
    if line is not None:
        raise PreflightFailed(line)
    if not facts.dbos_exists:
        _create_database(url, facts.dbos_database, application_name)


def _gather(url: str, application_name: str) -> ServerFacts:
    dbos_database = database_name(url) + DBOS_SUFFIX
    with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                         application_name=application_name) as conn:
        row = conn.execute(
            "SELECT current_setting('server_version_num')::int, current_setting('server_version'), current_user,"
            " r.rolsuper, r.rolcreatedb, current_database(),"
            " (SELECT extversion FROM pg_extension WHERE extname = 'vector'),"
            " (SELECT default_version FROM pg_available_extensions WHERE name = 'vector'),"
            " coalesce((SELECT bool_or(trusted) FROM pg_available_extension_versions WHERE name = 'vector'), false),"
            " has_database_privilege(current_database(), 'CREATE'), has_schema_privilege('public', 'CREATE'),"
            " to_regclass('public.schema_migrations') IS NOT NULL,"
            " (SELECT true FROM pg_database WHERE datname = %s),"
            " (SELECT has_database_privilege(%s, 'CONNECT') FROM pg_database WHERE datname = %s)"
            " FROM pg_roles r WHERE r.rolname = current_user",
            (dbos_database, dbos_database, dbos_database),
        ).fetchone()
        assert row is not None
        applied: set[str] = set()
        if row[11]:
            applied = {version for (version,) in conn.execute("SELECT version FROM schema_migrations")}
    return ServerFacts(
        version_num=row[0], version=row[1].split(" ")[0], role=row[2], superuser=row[3], createdb=row[4],
        database=row[5], vector_created=row[6], vector_available=row[7], vector_trusted=row[8],
        may_create_in_database=row[9], may_create_in_public=row[10],
        migrations_pending=bool(pending_migrations(applied, MIGRATIONS_DIR)),
        dbos_database=dbos_database, dbos_exists=bool(row[12]), dbos_connect=bool(row[13]),
    )


def _create_database(url: str, name: str, application_name: str) -> None:
    with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                         application_name=application_name) as conn:
        try:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except (psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
            # Another process starting at the same moment made it: Postgres says so as DuplicateDatabase when
            # that one committed first, and as a unique violation of pg_database's name index when both
            # inserted the row at once (seen with two servers started together).
            return
    log.info("created database %s for DBOS", name)


def _unreachable(url: str, exc: psycopg.OperationalError) -> str:
    parts = urlsplit(url)
    where = f"{parts.hostname or 'the local socket'}{f':{parts.port}' if parts.port else ''}/{database_name(url)}"
    detail = " ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    hint = ""
    if "does not exist" in detail and "database" in detail:
        hint = (f" A role with CREATEDB (or a superuser) must run once: psql -c 'CREATE DATABASE "
                f"{database_name(url)} OWNER {parts.username or 'your_role'}'")
    return f"Quire cannot connect to the database at {where} (DATABASE_URL): {detail}.{hint}"
