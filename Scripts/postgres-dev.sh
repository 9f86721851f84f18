#!/usr/bin/env bash
# A throwaway PostgreSQL server for development and tests, on loopback only (127.0.0.1; also 127.0.0.2, which its
# certificate does not name, for tests of sslmode=verify-full).
#
#   Scripts/postgres-dev.sh start   installs Debian's server if it is missing, creates a cluster in a temporary
#                                   folder, starts it on a free port, and prints its URL as the last line:
#                                   postgres://switchyard:PASSWORD@127.0.0.1:PORT/switchyard?sslmode=verify-full&sslrootcert=FOLDER/ca.crt
#                                   (already running: prints the URL again)
#   Scripts/postgres-dev.sh stop    stops it and removes its files
#   Scripts/postgres-dev.sh url     prints the URL of the running server (exit 1 if none)
#   Scripts/postgres-dev.sh restart stops the running server at once (clients are disconnected, as in a crash of
#                                   the connection) and starts it again on the same port
#
# It takes up to 300 connections (the tests run many pools and worker processes at once).
# The cluster lives in $SWITCHYARD_POSTGRES_DIR (default: $TMPDIR/switchyard-postgres, /tmp when TMPDIR is unset).
# PostgreSQL refuses to run as root: started by root, the server runs as the `postgres` user the Debian package
# creates. Connections over TCP need the password (SCRAM-SHA-256), so a wrong one fails as it would in production.
#
# TLS only, as managed servers have it: the script makes an authority (FOLDER/ca.crt) and a server certificate it
# signs for localhost and 127.0.0.1, and the server refuses TCP connections without TLS. The same authority signs a
# client certificate (FOLDER/client.crt, client.key) for the role `switchyard_cert`, which logs in with it alone
# (`cert` in pg_hba.conf); FOLDER/other-ca.crt is an authority that signed nothing, for tests of a wrong
# `sslrootcert`. Each start makes new ones; they are valid for 30 days.
set -euo pipefail

folder="${SWITCHYARD_POSTGRES_DIR:-${TMPDIR:-/tmp}/switchyard-postgres}"
data="$folder/data"
url_file="$folder/url"

# Runs a server program as the cluster's owner: the owner of its data folder when there is one (a cluster another
# user started), else the `postgres` user when run by root.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        local owner=postgres
        if [ -d "$data" ]; then owner=$(stat -c %U "$data"); fi
        runuser -u "$owner" -- "$@"
    else
        "$@"
    fi
}

server_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$found" ] || [ ! -x "$found/initdb" ]; then return 1; fi
    echo "$found"
}

running() {
    local bin
    bin=$(server_bin) || return 1
    [ -f "$url_file" ] && [ -d "$data" ] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1
}

start() {
    if running; then
        cat "$url_file"
        return
    fi
    if ! server_bin >/dev/null; then
        echo "installing PostgreSQL (Debian's postgresql package)" >&2
        sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
    fi
    local bin port password
    bin=$(server_bin)
    rm -rf "$folder"
    mkdir -p "$folder"
    chmod 700 "$folder"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$folder"; fi
    password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    printf '%s\n' "$password" > "$folder/password"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$folder/password"; fi
    as_owner "$bin/initdb" -D "$data" --username=switchyard --pwfile="$folder/password" \
        --auth-host=scram-sha-256 --auth-local=trust --encoding=UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 || {
        cat "$folder/initdb.log" >&2
        exit 1
    }
    rm -f "$folder/password"
    certificates
    # Unix socket: trust (the script's own createdb); TCP: TLS only, a password or, for switchyard_cert, a
    # certificate. No `host` lines: a connection without TLS matches none and is refused.
    printf '%s\n' "local   all all                          trust" \
        "hostssl all switchyard_cert 127.0.0.0/8      cert" \
        "hostssl all all             127.0.0.0/8      scram-sha-256" >"$folder/pg_hba.conf"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$folder/pg_hba.conf"; fi
    # Loopback only; the socket in the cluster's folder (not /var/run/postgresql, which needs root); settings for a
    # throwaway server: no fsync (a crash loses the cluster, which nothing keeps anyway).
    as_owner "$bin/pg_ctl" -D "$data" -l "$folder/server.log" -w -t 30 start \
        -o "-p $port -c listen_addresses=127.0.0.1,127.0.0.2 -k $folder -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c hba_file=$folder/pg_hba.conf -c ssl=on -c ssl_cert_file=$folder/server.crt -c ssl_key_file=$folder/server.key -c ssl_ca_file=$folder/ca.crt" \
        >/dev/null || {
        cat "$folder/server.log" >&2
        exit 1
    }
    as_owner "$bin/createdb" -h "$folder" -p "$port" -U switchyard switchyard
    as_owner "$bin/psql" -q -h "$folder" -p "$port" -U switchyard -d switchyard \
        -c "CREATE ROLE switchyard_cert LOGIN; GRANT ALL ON DATABASE switchyard TO switchyard_cert" >/dev/null
    (umask 077 && echo "postgres://switchyard:$password@127.0.0.1:$port/switchyard?sslmode=verify-full&sslrootcert=$folder/ca.crt" > "$url_file")
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, cluster in $folder" >&2
    cat "$url_file"
}

# The authority, the server's certificate and key, the client's, and an unrelated authority (openssl, P-256).
certificates() {
    (
        cd "$folder"
        umask 077
        for authority in ca other-ca; do
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 \
                -subj "/CN=Switchyard throwaway $authority" -keyout "$authority.key" -out "$authority.crt" \
                -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
        done
        leaf server localhost "subjectAltName=DNS:localhost,IP:127.0.0.1" "extendedKeyUsage=serverAuth"
        leaf client switchyard_cert "extendedKeyUsage=clientAuth"
        rm -f ca.key other-ca.key ./*.csr ca.srl
        chmod 644 ca.crt other-ca.crt client.crt
        # The server's key is read by the server's user, the client's by the tests'.
        if [ "$(id -u)" -eq 0 ]; then chown postgres server.key server.crt; fi
    )
}

# A key and a certificate signed by ca.key, in the current folder: leaf NAME COMMON_NAME EXTENSION...
leaf() {
    local name=$1 common=$2
    shift 2
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=$common" \
        -keyout "$name.key" -out "$name.csr" 2>/dev/null
    printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature" "$@" >"$name.ext"
    openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 30 -extfile "$name.ext" \
        -out "$name.crt" 2>/dev/null
    rm -f "$name.ext"
}

stop() {
    local bin
    if bin=$(server_bin) && [ -d "$data" ]; then
        as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$folder"
}

restart() {
    local bin
    running || { echo "no server: run $0 start" >&2; exit 1; }
    bin=$(server_bin)
    as_owner "$bin/pg_ctl" -D "$data" -m immediate -w restart >/dev/null 2>&1 || {
        cat "$folder/server.log" >&2
        exit 1
    }
}

case "${1:-}" in
start) start ;;
restart) restart ;;
stop) stop ;;
url)
    running || { echo "no server: run $0 start" >&2; exit 1; }
    cat "$url_file"
    ;;
*)
    echo "usage: $0 start|stop|url|restart" >&2
    exit 2
    ;;
esac
