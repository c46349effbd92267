/** Search strings (en-US). */
export default {};
