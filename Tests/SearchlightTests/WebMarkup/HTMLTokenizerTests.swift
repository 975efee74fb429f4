import Foundation
import XCTest
@testable import Searchlight

final class HTMLTokenizerTests: XCTestCase {
    func testAttributesQuotedUnquotedAndValueless() {
        XCTAssertEqual(tokens(#"<INPUT Type=checkbox checked data-x='a "b"' title="x 'y'" disabled/>"#),
                       [#"<input type=checkbox checked= data-x=a "b" title=x 'y' disabled=/>"#])
        XCTAssertEqual(tokens("<a href=/x?a=1&amp;b=2>go</A>"), ["<a href=/x?a=1&b=2>", "\"go\"", "</a>"])
        XCTAssertEqual(tokens("<p class = \"c\"   id=i>"), ["<p class=c id=i>"])
    }

    func testDuplicateAttributesKeepTheFirst() {
        XCTAssertEqual(tokens("<a id=1 ID=2 id=3>"), ["<a id=1>"])
    }

    func testCommentsDoctypeAndDeclarations() {
        XCTAssertEqual(tokens("<!DOCTYPE html><!-- a <b> c -->x<!-->y<!--->z<?xml v?>w<!bogus>v"),
                       ["doctype", "comment", "\"x\"", "comment", "\"y\"", "comment", "\"z\"", "comment", "\"w\"", "comment", "\"v\""])
        XCTAssertEqual(tokens("a<!-- never closed <p>text"), ["\"a\"", "comment"])
        XCTAssertEqual(tokens("<!-- x --!>after"), ["comment", "\"after\""])
    }

    func testCDATAIsText() {
        XCTAssertEqual(tokens("<![CDATA[a < b && c]]>d"), ["\"a < b && c\"", "\"d\""])
        XCTAssertEqual(tokens("<![CDATA[open"), ["\"open\""])
    }

    func testScriptAndStyleAreRawText() {
        XCTAssertEqual(tokens("<script>if (a < b && c) { x = '</p>' }</script>after"),
                       ["<script>", "raw(script):if (a < b && c) { x = '</p>' }", "</script>", "\"after\""])
        XCTAssertEqual(tokens("<style>p::before{content:\"<b>\"}</STYLE >"),
                       ["<style>", "raw(style):p::before{content:\"<b>\"}", "</style>"])
        // `</scripts` does not end a script; the end of input does.
        XCTAssertEqual(tokens("<script>a</scripts>b"), ["<script>", "raw(script):a</scripts>b"])
    }

    func testTitleAndTextareaDecodeReferencesButNotTags() {
        XCTAssertEqual(tokens("<title>A &amp; <b>B</b></title>"), ["<title>", "\"A & <b>B</b>\"", "</title>"])
        XCTAssertEqual(tokens("<textarea><p>&lt;</textarea>"), ["<textarea>", "\"<p><\"", "</textarea>"])
    }

    func testLessThanThatStartsNoTagIsText() {
        XCTAssertEqual(tokens("1 < 2 <3 <>x</>y</ z>w"), ["\"1 \"", "\"<\"", "\" 2 \"", "\"<\"", "\"3 \"", "\"<\"", "\">x\"", "\"y\"", "comment", "\"w\""])
        XCTAssertEqual(tokens("a</"), ["\"a\"", "\"</\""])
    }

    func testTagsCutOffByTheEndAreDropped() {
        XCTAssertEqual(tokens("text<a href=\"x"), ["\"text\""])
        XCTAssertEqual(tokens("text<div class=a"), ["\"text\""])
        XCTAssertEqual(tokens("text</div"), ["\"text\""])
        XCTAssertEqual(tokens("<p"), [])
    }

    func testEndTagsIgnoreAttributes() {
        XCTAssertEqual(tokens("</div class=\"x\">"), ["</div>"])
    }

    /// WHATWG script data escaping: inside `<!--` a `<script>` is double-escaped, so its `</script>` does not end the
    /// outer script (old ad snippets `document.write` a script this way); the script's end was taken there and its
    /// remaining code read as page text.
    func testAScriptInsideAnEscapedScriptDoesNotEndIt() {
        let code = "<!--\ndocument.write(\"<script src='a.js'></SCRIPT>\");\n//-->"
        XCTAssertEqual(tokens("<script>" + code + "</script>after"),
                       ["<script>", "raw(script):" + code, "</script>", "\"after\""])
        // `-->` leaves the escape, so a `</script>` after it ends the script; without `<script`, one inside it does.
        XCTAssertEqual(tokens("<script><!-- <script> --> </script>a"), ["<script>", "raw(script):<!-- <script> --> ", "</script>", "\"a\""])
        XCTAssertEqual(tokens("<script><!-- a </script>b"), ["<script>", "raw(script):<!-- a ", "</script>", "\"b\""])
        XCTAssertEqual(tokens("<script><!--><script></script>c"), ["<script>", "raw(script):<!--><script>", "</script>", "\"c\""])
        // Style has no escapes.
        XCTAssertEqual(tokens("<style><!--<script></style>d"), ["<style>", "raw(style):<!--<script>", "</style>", "\"d\""])
    }
}
