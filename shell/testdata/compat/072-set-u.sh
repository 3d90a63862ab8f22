set -u
echo "${DEFINED:-fallback}"
echo "$UNDEFINED_VAR"
echo never
