package dev.ncclbench.output;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HtmlTest {
    @Test
    void escapesWhatHtmlGivesMeaningTo() {
        assertEquals("&lt;b&gt;a &amp; b&lt;/b&gt; &quot;q&quot; &#39;s&#39;", Html.escape("<b>a & b</b> \"q\" 's'"));
    }

    @Test
    void keepsLineBreaksAndDropsOtherControlCharacters() {
        assertEquals("a\nb\tc d", Html.escape("a\nb\tc\u0007d"));
        assertEquals("", Html.escape(null));
    }
}
