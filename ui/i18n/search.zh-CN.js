/** Search strings (zh-CN). */
export default {};
