package awk

import "regexp"

// Expr is an expression node.
type Expr interface{ expr() }

// Stmt is a statement node.
type Stmt interface{ stmt() }

type (
	numLit struct{ n float64 }
	strLit struct{ s string }
	// regexLit is /re/: as a value it matches $0; as the operand of ~,
	// split, sub, ... it is the regex itself.
	regexLit struct {
		src string
		re  *regexp.Regexp
	}
	// varExpr is a named variable: a global, a function's local, or a
	// special variable (NR, FS, ...).
	varExpr struct {
		name    string
		scope   scope
		idx     int
		special special
	}
	indexExpr struct {
		arr   *varExpr
		index []Expr
	}
	fieldExpr  struct{ index Expr }
	assignExpr struct {
		lhs Expr // varExpr, indexExpr or fieldExpr
		op  token
		rhs Expr
	}
	condExpr   struct{ cond, yes, no Expr }
	binaryExpr struct {
		op   token // arithmetic, comparison, tAnd, tOr; tConcat
		l, r Expr
	}
	matchExpr struct {
		l   Expr
		re  Expr
		neg bool
	}
	inExpr struct {
		index []Expr
		arr   *varExpr
	}
	unaryExpr struct {
		op token // tSub, tAdd, tNot
		e  Expr
	}
	incrExpr struct {
		lv    Expr
		pre   bool
		delta float64
	}
	callExpr struct {
		name string
		fn   *function
		args []Expr
		line int
	}
	builtinExpr struct {
		name string
		args []Expr
	}
	getlineExpr struct {
		kind getlineKind
		src  Expr // file or command
		lv   Expr // nil for $0
	}
	// groupExpr is "(a, b)": valid only as print's argument list or before
	// "in".
	groupExpr struct{ exprs []Expr }
)

const tConcat token = -1

type scope uint8

const (
	scopeGlobal scope = iota
	scopeLocal
	scopeSpecial
)

type special uint8

const (
	spNone special = iota
	spNF
	spNR
	spFNR
	spFS
	spOFS
	spORS
	spRS
	spFILENAME
	spSUBSEP
	spRSTART
	spRLENGTH
	spCONVFMT
	spOFMT
	spARGC
	spRT
)

var specialNames = map[string]special{
	"NF": spNF, "NR": spNR, "FNR": spFNR, "FS": spFS, "OFS": spOFS, "ORS": spORS,
	"RS": spRS, "FILENAME": spFILENAME, "SUBSEP": spSUBSEP, "RSTART": spRSTART,
	"RLENGTH": spRLENGTH, "CONVFMT": spCONVFMT, "OFMT": spOFMT, "ARGC": spARGC,
	"RT": spRT,
}

type getlineKind uint8

const (
	getlineMain getlineKind = iota
	getlineFile
	getlineCmd
)

func (*numLit) expr()      {}
func (*strLit) expr()      {}
func (*regexLit) expr()    {}
func (*varExpr) expr()     {}
func (*indexExpr) expr()   {}
func (*fieldExpr) expr()   {}
func (*assignExpr) expr()  {}
func (*condExpr) expr()    {}
func (*binaryExpr) expr()  {}
func (*matchExpr) expr()   {}
func (*inExpr) expr()      {}
func (*unaryExpr) expr()   {}
func (*incrExpr) expr()    {}
func (*callExpr) expr()    {}
func (*builtinExpr) expr() {}
func (*getlineExpr) expr() {}
func (*groupExpr) expr()   {}

type redirect uint8

const (
	redirNone redirect = iota
	redirFile
	redirAppend
	redirPipe
)

type (
	exprStmt struct {
		e    Expr
		line int
	}
	printStmt struct {
		printf bool
		args   []Expr
		redir  redirect
		dest   Expr
		line   int
	}
	ifStmt struct {
		cond Expr
		then []Stmt
		els  []Stmt
		line int
	}
	whileStmt struct {
		cond Expr
		body []Stmt
		line int
	}
	doStmt struct {
		body []Stmt
		cond Expr
		line int
	}
	forStmt struct {
		init Stmt
		cond Expr
		post Stmt
		body []Stmt
		line int
	}
	forInStmt struct {
		v    *varExpr
		arr  *varExpr
		body []Stmt
		line int
	}
	blockStmt struct{ body []Stmt }
	nextStmt  struct{ line int }
	nextfile  struct{ line int }
	exitStmt  struct {
		e    Expr
		line int
	}
	returnStmt struct {
		e    Expr
		line int
	}
	breakStmt    struct{}
	continueStmt struct{}
	deleteStmt   struct {
		arr   *varExpr
		index []Expr // nil: the whole array
		line  int
	}
)

func (*exprStmt) stmt()     {}
func (*printStmt) stmt()    {}
func (*ifStmt) stmt()       {}
func (*whileStmt) stmt()    {}
func (*doStmt) stmt()       {}
func (*forStmt) stmt()      {}
func (*forInStmt) stmt()    {}
func (*blockStmt) stmt()    {}
func (*nextStmt) stmt()     {}
func (*nextfile) stmt()     {}
func (*exitStmt) stmt()     {}
func (*returnStmt) stmt()   {}
func (*breakStmt) stmt()    {}
func (*continueStmt) stmt() {}
func (*deleteStmt) stmt()   {}

// item is one pattern-action pair of the main loop.
type item struct {
	pattern  Expr // nil: every record
	pattern2 Expr // non-nil: a range pattern
	body     []Stmt
	noAction bool // print $0
	inRange  bool
}

type function struct {
	name    string
	params  []string
	nlocals int
	body    []Stmt
	line    int
}

// program is a parsed awk program.
type program struct {
	begin   [][]Stmt
	items   []*item
	end     [][]Stmt
	funcs   map[string]*function
	globals []string // names by index
}
