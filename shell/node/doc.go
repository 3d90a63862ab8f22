// Package node is the node command: JavaScript on goja, with the parts of
// Node's runtime scripts use (CommonJS and ES modules, fs over the sandbox's
// filesystem, process, timers, an event loop, Buffer, http clients through
// the sandbox's rules). It registers in shell/command from its init.
package node
