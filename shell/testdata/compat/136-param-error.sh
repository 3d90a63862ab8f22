unset v
echo "${v:?v is required}"
echo never
