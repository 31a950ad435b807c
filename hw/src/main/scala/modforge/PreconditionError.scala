package modforge

/** Raised when an operand or modulus breaks an algorithm's preconditions. */
class PreconditionError(msg: String) extends IllegalArgumentException(msg)
