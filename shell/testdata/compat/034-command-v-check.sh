command -v jq > /dev/null && echo "jq available"
command -v no_such_tool_xyz > /dev/null || echo "no_such_tool_xyz missing"
