/** Panel strings (zh-CN). */
export default {};
