#!/bin/sh
# Start SeaweedFS for docker-compose.yml: master, volume server, filer and S3 gateway in one
# process (`weed server -s3`), data under /data (the volume `seaweedfs-data`).
#
# The S3 gateway knows one identity, the application's: S3_ACCESS_KEY / S3_SECRET_KEY from
# .env. Its identities file (`-s3.config`, SeaweedFS's JSON format) is written at every
# start into the container's /tmp, never into the data volume, so that a key changed in
# .env takes effect at the next start and no old key survives in the data.
set -eu

: "${S3_ACCESS_KEY:?set S3_ACCESS_KEY in .env}"
: "${S3_SECRET_KEY:?set S3_SECRET_KEY in .env}"
# The keys are written into JSON and into the application's connection settings as they
# are: letters, digits and . _ ~ - only (e.g. `openssl rand -hex 32`).
for key in "$S3_ACCESS_KEY" "$S3_SECRET_KEY"; do
    case "$key" in
        *[!A-Za-z0-9._~-]*)
            echo "seaweedfs: S3_ACCESS_KEY and S3_SECRET_KEY may hold letters, digits and . _ ~ - only" >&2
            exit 64
            ;;
    esac
done

config="${S3_CONFIG_FILE:-/tmp/seaweedfs-s3.json}"
umask 077
cat >"$config" <<JSON
{
  "identities": [
    {
      "name": "legaldocs",
      "credentials": [{"accessKey": "$S3_ACCESS_KEY", "secretKey": "$S3_SECRET_KEY"}],
      "actions": ["Admin", "Read", "List", "Tagging", "Write"]
    }
  ]
}
JSON

# -volume.max=0: as many volumes as the disk holds. -master.volumeSizeLimitMB=1024: each
# bucket is a collection that grows several volumes at once; 1 GiB volumes keep a small
# disk from filling with preallocated space (SeaweedFS's default is 30 GiB each).
exec weed server \
    -dir=/data \
    -ip.bind=0.0.0.0 \
    -volume.max=0 \
    -master.volumeSizeLimitMB=1024 \
    -s3 \
    -s3.port=8333 \
    -s3.config="$config" \
    "$@"
