// The Spotlight query language: lexer, parser, AST.
