#!/bin/sh
# A self-signed certificate for local or private-network use, when Caddy's own local CA
# (CADDY_TLS=internal, the default) does not suit: e.g. clients that must pin one file.
#
#   deploy/make-self-signed-cert.sh [HOST] [OUTPUT_DIR]
#
# Writes OUTPUT_DIR/cert.pem and OUTPUT_DIR/key.pem (default deploy/certs/), valid 825 days
# for HOST (default localhost), localhost and 127.0.0.1. Then, in .env:
#   CADDY_TLS=/certs/cert.pem /certs/key.pem
set -eu

host="${1:-localhost}"
out="${2:-$(dirname "$0")/certs}"
mkdir -p "$out"
umask 077
openssl req -x509 -newkey rsa:3072 -sha256 -nodes -days 825 \
    -keyout "$out/key.pem" -out "$out/cert.pem" \
    -subj "/CN=$host" \
    -addext "subjectAltName=DNS:$host,DNS:localhost,IP:127.0.0.1" \
    -addext "extendedKeyUsage=serverAuth" 2>/dev/null
# Caddy runs as root in its image, but keep the key readable by the container only.
chmod 600 "$out/key.pem"
chmod 644 "$out/cert.pem"
echo "Wrote $out/cert.pem and $out/key.pem for $host"
