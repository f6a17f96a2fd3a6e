package postgres

// AnswersTaken is answersTaken, for the tests outside the package.
func AnswersTaken() int64 { return answersTaken.Load() }
