set -e
(echo sub; exit 4)
echo never
