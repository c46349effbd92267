/** Project strings (zh-CN). */
export default {};
