/** Panel strings (en-US). */
export default {};
