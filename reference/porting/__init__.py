"""The porting kit: the language-neutral random stream, the conformance vectors and their schemas, for porters who
implement the mechanisms in another language."""
